__version__ = "0.0.0"  # build_wheels.py writes the release version here
