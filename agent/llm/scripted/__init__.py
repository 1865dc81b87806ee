"""The scripted model: a real HTTP server on 127.0.0.1 replaying turns, for tests."""
