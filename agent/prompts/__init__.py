"""What the model is told: system prompts, the conversation, the small-model policy."""
