'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { Cart, SHIPPING_CENTS } = require('../src/cart');
const { toCents, formatCents } = require('../src/money');

test('amounts parse to cents and format back', () => {
  assert.equal(toCents('12.5'), 1250);
  assert.equal(formatCents(1205), '$12.05');
});

test('adding the same sku adds up the quantity', () => {
  const cart = new Cart().add('A', 'Mug', '8.00').add('A', 'Mug', '8.00', 2);
  assert.equal(cart.subtotalCents(), 2400);
});

test('shipping is free over 75 dollars', () => {
  const cart = new Cart().add('B', 'Lamp', '80.00');
  assert.equal(cart.totalCents(), 8000);
  assert.equal(new Cart().add('C', 'Pen', '2.00').totalCents(), 200 + SHIPPING_CENTS);
});

test('a percentage coupon takes that percentage off', () => {
  const cart = new Cart().add('B', 'Lamp', '80.00').applyCoupon('welcome10');
  assert.equal(cart.totalCents(), 7200);
});

test('a coupon with a minimum does nothing below it', () => {
  const cart = new Cart().add('C', 'Pen', '20.00').applyCoupon('SPRING25');
  assert.equal(cart.totalCents(), 2000 + SHIPPING_CENTS);
});

test('fixed and shipping coupons', () => {
  assert.equal(new Cart().add('C', 'Pen', '20.00').applyCoupon('FIVEOFF').totalCents(), 1500 + SHIPPING_CENTS);
  assert.equal(new Cart().add('C', 'Pen', '20.00').applyCoupon('SHIPFREE').totalCents(), 2000);
});
