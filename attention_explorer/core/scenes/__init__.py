"""The kinds of scene, one folder each with the same files.

scene.py holds the immutable scene and its maths entry, file.py reads, checks and writes its file, report.py says
what `compute` prints.
"""
