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


@torch.no_grad()
def track_chunks(model, video):
    tracker = Tracker(model)
    masks = []
    for t in range(0, video.size(0), 10):
        masks.append(tracker.track(video[t:t + 10]))
        torch.cuda.empty_cache()  # want: TL301 "every iteration of this loop, each of which runs the model"
    return masks


@torch.no_grad()
def evaluate_rounds(net, val_loader, rounds):
    for r in range(rounds):
        evaluate(net, val_loader[r:])
        torch.cuda.empty_cache()  # ok: evaluate runs over a loader, not a chunk
    for r in range(rounds):
        evaluate(net, r)
        torch.cuda.empty_cache()  # ok: given the count alone, it may run a whole phase


@torch.no_grad()
def track_padded(model, video, size, pad):
    tracker = Tracker(model)
    masks = []
    for t in range(0, video.size(0), size):
        start = max(0, t - pad)
        end = min(video.size(0), t + size + pad)
        masks.append(tracker.track(video[start:end]))
        torch.cuda.empty_cache()  # want: TL301 "every iteration of this loop, each of which runs the model"
        evaluate(model, end)
    return masks


@torch.no_grad()
def evaluate_until(net, loader, rounds):
    for r in range(rounds):
        last = min(r + 1, rounds)
        evaluate(net, last)
        torch.cuda.empty_cache()  # ok: a bound computed from the count, not a part of anything
