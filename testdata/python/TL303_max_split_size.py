"""Allocator settings that cap block splitting."""
import argparse
import os

import torch

BASE_CONF = "max_split_size_mb:512,garbage_collection_threshold:0.6"  # want: TL303 "without `expandable_segments`"

os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "max_split_size_mb:128"  # want: TL303 "expandable_segments:True"


def configure(split_mb):
    os.environ.setdefault("PYTORCH_CUDA_ALLOC_CONF", f"max_split_size_mb:{split_mb}")  # want: TL303


def configure_runtime():
    torch.cuda.memory._set_allocator_settings("roundup_power2_divisions:4,max_split_size_mb:256")  # want: TL303


def configure_from_constant():
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = BASE_CONF


def configure_from_parts(extra):
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = f"{extra},max_split_size_mb:64"  # ok: the leading part is unknown and may enable expandable segments


def parse_args():
    parser = argparse.ArgumentParser(description="Trains with max_split_size_mb:128 if asked.")  # ok: not an allocator setting
    parser.add_argument("--alloc-conf", default="", help="for example max_split_size_mb:128")  # ok: a help text
    return parser.parse_args()


def describe():
    """Sets max_split_size_mb:128 when memory is tight."""  # ok: a docstring
    message = "consider max_split_size_mb:128"  # ok: a message, never put into the environment
    return message


def not_the_allocator():
    os.environ["MY_APP_CONF"] = "max_split_size_mb:128"  # ok: not an allocator variable
