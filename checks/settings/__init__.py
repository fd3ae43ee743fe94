"""Settings: a repository's [tool.theory-claims] (config), the Hypothesis profiles, the optional extras."""
