"""Allocator settings that already consider expandable segments."""
import os

import torch


def configure_server():
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "max_split_size_mb:128,expandable_segments:True"  # ok: expandable_segments is set too


def configure_for_ipc():
    # Expandable segments cannot be shared through CUDA IPC yet.
    torch.cuda.memory._set_allocator_settings("expandable_segments:False,max_split_size_mb:256")  # ok: expandable_segments considered and turned off


def configure_legacy():
    os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "max_split_size_mb:512"  # ok: the file already names expandable_segments elsewhere
