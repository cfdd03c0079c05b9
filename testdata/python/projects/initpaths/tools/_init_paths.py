"""Puts lib/ on the import path through a helper, as many research code
bases' tools/_init_paths.py do."""
import os.path as osp
import sys


def add_path(path):
    if path not in sys.path:
        sys.path.insert(0, path)


this_dir = osp.dirname(__file__)

lib_path = osp.join(this_dir, "..", "lib")
add_path(lib_path)
