"""Install: put a recipe into an interpreter, or leave it as it was.

Takes: a recipe, the target (an interpreter or a venv to create) and its facts. Gives: an
`InstallReport`. Stages: guard and target (`target`), pre-flight (`macml.recipes.index`), plan
and install with rollback (`pip`), post-install steps (`steps`, `plaidml`), and the after-check.
`command` runs them in order.
"""
