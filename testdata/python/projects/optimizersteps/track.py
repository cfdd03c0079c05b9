import torch


def run_tracker(tracker, frames):
    with torch.no_grad():
        for frame in frames:
            tracker.step(frame)
    return tracker.tracks
