"""This repository's own pytest set-up: the theory-claims plugin (loaded here when the package is not installed;
installed, its ``pytest11`` entry point loads it) and pytester for the engine's tests. The catalog's layout is in
pyproject.toml's ``[tool.theory-claims]``, as in any repository that uses the tool."""

from checks.engine.launcher import PLUGIN, plugin_installed

pytest_plugins = ["pytester"] if plugin_installed() else [PLUGIN, "pytester"]
