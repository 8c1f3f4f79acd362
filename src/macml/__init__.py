"""macml: is my GPU actually being used, and if not, what exactly do I install?"""

__version__ = "0.1.0"
