# A loop that hands each item to a method of a parameter whose code the
# project does not show (`tracker.track(frame)`) may run a model on each
# item: a flush on every iteration is reported, with that assumption. A
# method of a class of the project that runs no model, a call that is not
# given the item, and a flush on some iterations only are not.
import torch


class FrameCounter:
    def __init__(self):
        self.seen = 0

    def count(self, frame):
        self.seen += frame.numel()


def track_video(tracker, frames):
    masks = []
    for frame in frames:
        masks.append(tracker.track(frame))
        torch.cuda.empty_cache()  # want: TL301(medium) "hands an item to `tracker.track\(frame\)`"
    return masks


def count_frames(counter, frames):
    for frame in frames:
        counter.count(frame)
        torch.cuda.empty_cache()  # ok: TL301 the project's `count` runs no model


def reset_each(tracker, frames):
    for _ in frames:
        tracker.reset()
        torch.cuda.empty_cache()  # ok: TL301 no item handed on


def flush_sometimes(tracker, frames):
    for i, frame in enumerate(frames):
        tracker.track(frame)
        if i % 100 == 0:
            torch.cuda.empty_cache()  # ok: TL301 every hundredth frame


def assign_labels(outputs, targets):
    # A tensor's own methods (`outputs.new_zeros(...)`, `outputs.view(...)`)
    # run no model, whatever `outputs` is given.
    boxes = []
    for target in targets:
        boxes.append(outputs.new_zeros((target.shape[0], 4)))
        torch.cuda.empty_cache()  # ok: TL301 a tensor's factory, no model
    for target in targets:
        boxes.append(outputs.view(-1, 4)[target])
        torch.cuda.empty_cache()  # ok: TL301 a tensor's view, no model
    return boxes
