'use strict';
// Amounts are integer cents throughout; only formatting turns them into text.

function toCents(text) {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(text).trim());
  if (!match) throw new Error(`not an amount: ${text}`);
  const cents = (match[2] || '').padEnd(2, '0');
  return Number(match[1]) * 100 + Number(cents);
}

function formatCents(cents) {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

module.exports = { toCents, formatCents };
