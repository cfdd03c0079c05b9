"""Storages of another file: both keep what they are given."""


class Rollout:
    def __init__(self):
        self.values = []
        self.log_probs = []
        self.rewards = []

    def remember(self, value, log_prob, reward):
        self.values.append(value)
        self.log_probs.append(log_prob)
        self.rewards.append(reward)

    def sample(self):
        return self.values, self.log_probs, self.rewards

    def clear(self):
        self.values, self.log_probs, self.rewards = [], [], []


class History:
    def __init__(self):
        self.actions = []
        self.values = []

    def record(self, action, value):
        self.actions.append(action)
        self.values.append(value)


class ImagePool:
    """A pool of at most size images, as CycleGAN keeps of its fakes."""

    def __init__(self, size=50):
        self.size = size
        self.images = []

    def query(self, image):
        if len(self.images) < self.size:
            self.images.append(image)
            return image
        self.images[0] = image
        return image
