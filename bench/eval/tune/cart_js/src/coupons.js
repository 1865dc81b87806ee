'use strict';
// Coupons: a fixed amount off, a percentage off, or free shipping. Codes are case-blind.

const COUPONS = {
  WELCOME10: { kind: 'percent', value: 10 },
  SPRING25: { kind: 'percent', value: 25, minimumCents: 5000 },
  FIVEOFF: { kind: 'fixed', value: 500 },
  SHIPFREE: { kind: 'shipping' },
};

function findCoupon(code) {
  const coupon = COUPONS[String(code).trim().toUpperCase()];
  if (!coupon) throw new Error(`unknown coupon ${code}`);
  return coupon;
}

// How many cents the coupon takes off a subtotal (never more than the subtotal).
function discountCents(coupon, subtotalCents) {
  if (coupon.minimumCents && subtotalCents < coupon.minimumCents) return 0;
  switch (coupon.kind) {
    case 'percent':
      return Math.min(subtotalCents, Math.round(subtotalCents * coupon.value));
    case 'fixed':
      return Math.min(subtotalCents, coupon.value);
    default:
      return 0;
  }
}

module.exports = { COUPONS, findCoupon, discountCents };
