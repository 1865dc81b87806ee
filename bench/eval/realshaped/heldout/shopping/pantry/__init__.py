"""pantry: recipes scaled to the number of people, and the week's shopping list."""
