'use strict';
const { toCents } = require('./money');
const { findCoupon, discountCents } = require('./coupons');

const SHIPPING_CENTS = 499;
const FREE_SHIPPING_FROM_CENTS = 7500;

class Cart {
  constructor() {
    this.lines = new Map(); // sku -> { name, unitCents, quantity }
    this.coupon = null;
  }

  add(sku, name, price, quantity = 1) {
    if (!Number.isInteger(quantity) || quantity < 1) throw new Error('quantity must be a positive integer');
    const line = this.lines.get(sku);
    if (line) line.quantity += quantity;
    else this.lines.set(sku, { name, unitCents: toCents(price), quantity });
    return this;
  }

  remove(sku) {
    this.lines.delete(sku);
    return this;
  }

  applyCoupon(code) {
    this.coupon = findCoupon(code);
    return this;
  }

  subtotalCents() {
    let total = 0;
    for (const line of this.lines.values()) total += line.unitCents * line.quantity;
    return total;
  }

  shippingCents() {
    if (this.lines.size === 0) return 0;
    if (this.coupon && this.coupon.kind === 'shipping') return 0;
    return this.subtotalCents() >= FREE_SHIPPING_FROM_CENTS ? 0 : SHIPPING_CENTS;
  }

  totalCents() {
    const subtotal = this.subtotalCents();
    const discount = this.coupon ? discountCents(this.coupon, subtotal) : 0;
    return subtotal - discount + this.shippingCents();
  }
}

module.exports = { Cart, SHIPPING_CENTS };
