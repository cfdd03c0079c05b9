import torch

from segment import evaluate, load_frames, segment
from tracker import Tracker


@torch.no_grad()
def track_video(model, frames):
    tracker = Tracker(model)
    masks = []
    for frame in frames:
        masks.append(tracker.track(frame))
        torch.cuda.empty_cache()  # want: TL301 "every iteration of this loop, each of which runs the model"
    return masks


@torch.no_grad()
def segment_all(net, paths):
    for path in paths:
        image = load_frames(path)[0]
        mask = segment(net, image)
        torch.cuda.empty_cache()  # want: TL301
        del mask


def reload_all(paths):
    tracker = Tracker(None)
    for path in paths:
        frames = load_frames(path)
        tracker.reset()
        torch.cuda.empty_cache()  # ok: neither call runs a model
        del frames


@torch.no_grad()
def validate_each_epoch(net, val_loader, epochs):
    for epoch in range(epochs):
        evaluate(net, val_loader)
        torch.cuda.empty_cache()  # ok: once per epoch; evaluate runs over the whole loader
