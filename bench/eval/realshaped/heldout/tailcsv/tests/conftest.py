def record(day: str, description: str, amount: str, reference: str = "") -> str:
    return f"{day:<8}{description:<30}{amount:>12}{reference:<10}"
