"""Claims under claims/ are collected as tests by the theory-claims plugin."""

from checks.profiles import register_profiles

register_profiles()

pytest_plugins = ["checks.engine.plugin", "pytester"]
