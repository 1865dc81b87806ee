"""shipit: pushes a build to one of our environments."""
