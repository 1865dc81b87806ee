"""Drive mini-swe-agent (its default agent, tool calls, local shell) against a base URL.

Runs under the benchmark's own venv:
`python mini_driver.py REPO BASE_URL TASK [TIMING [MODEL [CONFIG]]]`.
With TIMING (not empty), the seconds spent inside the environment's `execute` (running the
commands, subprocess start included) are written there at the end. MODEL is the name the
server is asked for (default "scripted", kiln's scripted test server). CONFIG is one of
mini-swe-agent's own configs (default mini.yaml, tool calls); a `*textbased*` one reads
the command from a fenced block in the reply.
"""

import sys
import time

import yaml
from minisweagent.agents.default import DefaultAgent
from minisweagent.config import builtin_config_dir
from minisweagent.environments.local import LocalEnvironment
from minisweagent.models.litellm_model import LitellmModel
from minisweagent.models.litellm_textbased_model import LitellmTextbasedModel

repo, base_url, task = sys.argv[1:4]
timing = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] else None
model_name = sys.argv[5] if len(sys.argv) > 5 else "scripted"
config_name = sys.argv[6] if len(sys.argv) > 6 else "mini.yaml"
config = yaml.safe_load((builtin_config_dir / config_name).read_text())
agent_config = {k: v for k, v in config["agent"].items() if k not in ("mode",)}
model_class = LitellmTextbasedModel if "textbased" in config_name else LitellmModel
model = model_class(
    model_name=f"openai/{model_name}",
    model_kwargs={
        **config.get("model", {}).get("model_kwargs", {}),
        "api_base": base_url,
        "api_key": "scripted",
    },
    cost_tracking="ignore_errors",
    **{k: v for k, v in config.get("model", {}).items() if k != "model_kwargs"},
)
env = LocalEnvironment(cwd=repo, **config.get("environment", {}))
spent = [0.0]
if timing:
    execute = env.execute

    def timed_execute(*args, **kwargs):
        started = time.perf_counter()
        try:
            return execute(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - started

    env.execute = timed_execute
result = DefaultAgent(model, env, **agent_config).run(task)
print(result.get("exit_status"))
if timing:
    with open(timing, "w") as out:
        out.write(str(spent[0]))
