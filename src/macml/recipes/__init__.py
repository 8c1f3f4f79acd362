"""Recipes: what to install on which machine.

Takes: the TOML files in `recipes/` and a machine's facts. Gives: `Recipe` values, their match
against the facts with the exact reasons a row does not fit (`catalog`, `conditions`), the
target interpreter's wheel tags (`tags`) and the package-index client behind the pre-flight
(`index`). `command` is `macml recipes`.
"""
