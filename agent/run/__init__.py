"""The plan -> edit -> test -> correct loop as one coroutine: its state, its checks, its stops."""
