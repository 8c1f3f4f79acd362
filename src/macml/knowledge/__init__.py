"""What macml knows about the world, each fact with its source: compatibility between drivers,
toolkits, frameworks and OS releases (`compat`), hardware identification tables (`hardware`) and
GPU figures (`gpu_specs`). Facts are data plus small pure lookups; nothing here reads the machine.
Checks, recipes and inference take their minimums from here, so that they agree."""
