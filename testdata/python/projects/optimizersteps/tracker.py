"""A tracker whose `step` runs its detector: its only caller runs it under
no_grad. The `.step()` calls of the training scripts are an optimizer's
and a scheduler's, not the tracker's."""


class Tracker:
    def __init__(self, detector):
        self.detector = detector
        self.tracks = []

    def step(self, frame):
        self.detector.eval()
        boxes = self.detector(frame)  # ok: `step` runs under run_tracker's no_grad
        self.tracks.append(boxes.argmax(-1).tolist())
