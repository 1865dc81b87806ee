"""Drive mini-swe-agent (its default agent, tool calls, local shell) against a base URL.

Runs under the benchmark's own venv: `python mini_driver.py REPO BASE_URL TASK`.
"""

import sys

import yaml
from minisweagent.agents.default import DefaultAgent
from minisweagent.config import builtin_config_dir
from minisweagent.environments.local import LocalEnvironment
from minisweagent.models.litellm_model import LitellmModel

repo, base_url, task = sys.argv[1:4]
config = yaml.safe_load((builtin_config_dir / "mini.yaml").read_text())
agent_config = {k: v for k, v in config["agent"].items() if k not in ("mode",)}
model = LitellmModel(
    model_name="openai/scripted",
    model_kwargs={"api_base": base_url, "api_key": "scripted"},
    cost_tracking="ignore_errors",
    **{k: v for k, v in config.get("model", {}).items() if k != "model_kwargs"},
)
env = LocalEnvironment(cwd=repo, **config.get("environment", {}))
result = DefaultAgent(model, env, **agent_config).run(task)
print(result.get("exit_status"))
