"""HTTP blueprints: thin views over the service (STYLE.md §6)."""
