"""TL101: containers of an object that hold at most a bound do not grow."""
import random
from collections import deque

import torch


class ImagePool:
    def __init__(self, size=50):
        self.size = size
        self.images = []

    def query(self, image):
        if len(self.images) < self.size:
            self.images.append(image)
            return image
        i = random.randint(0, self.size - 1)
        old, self.images[i] = self.images[i], image
        return old


class ScoreWindow:
    def __init__(self, n=100):
        self.scores = deque(maxlen=n)

    def add(self, score):
        self.scores.append(score)


class Trimmed:
    def __init__(self, n=10):
        self.n = n
        self.values = []

    def add(self, value):
        self.values.append(value)
        if len(self.values) > self.n:
            self.values.pop(0)


class History:
    def __init__(self):
        self.values = []

    def add(self, value):
        self.values.append(value)


def train(gen, disc, loader, opt_g, opt_d):
    pool, window, trimmed, history = ImagePool(), ScoreWindow(), Trimmed(), History()
    for z, real in loader:
        fake = gen(z)
        g_loss = -disc(fake).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        old = pool.query(fake)
        d_loss = disc(old.detach()).mean() - disc(real).mean()
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        window.add(g_loss)
        trimmed.add(g_loss)
        history.add(g_loss)  # want: TL101 "adds it into `self.values` \(TL101_capped.py:46\)"


def evaluate(model, loader):
    # No backward runs through these graphs: the window keeps as many
    # passes' activations as it holds.
    window = ScoreWindow()
    for x, y in loader:
        window.add(((model(x) - y) ** 2).mean())  # want: TL101(low) "as many steps' autograd graphs as it holds" TL201(low)
