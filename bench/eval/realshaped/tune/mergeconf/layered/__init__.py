from layered.merge import load_layers, merge

__all__ = ["load_layers", "merge"]
