"""A shop till: baskets and the printed receipt."""
