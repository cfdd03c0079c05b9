"""A tracker that runs its model on one frame per call."""


class Tracker:
    def __init__(self, model):
        self.model = model
        self.memory = None

    def track(self, frame):
        logits = self.model(frame)
        return logits.argmax(1)

    def reset(self):
        self.memory = None
