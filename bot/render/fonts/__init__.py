"""DejaVu Sans, shipped with the bot so images look the same on every host.

A package (not a plain folder) so that setuptools' package data carries the
font files and their licence (LICENSE-DejaVu.txt) into wheels.
"""
