"""TL201: an inference wrapper that switches its model in its constructor."""
import torch
import torch.nn as nn


class Predictor:
    def __init__(self, path):
        self.net = nn.Linear(4, 2)
        self.net.load_state_dict(torch.load(path, map_location="cpu"))
        self.net.eval()

    def predict(self, batches):
        # The switch is in `__init__`, for every method: seen, not assumed.
        return [self.net(x).tolist() for x in batches]  # want: TL201(high)


class Scorer:
    def __init__(self, path):
        self.net = nn.Linear(4, 2)
        self.net.load_state_dict(torch.load(path, map_location="cpu"))

    def predict(self, batches):
        # No switch anywhere, but the outputs only reach the host, as the
        # module-level call runs it with grad enabled: seen, whatever the name.
        return [self.net(x).tolist() for x in batches]  # want: TL201(high)


def report(batches):
    predictor = Predictor("a.pt")
    scorer = Scorer("b.pt")
    print(predictor.predict(batches), scorer.predict(batches))


if __name__ == "__main__":
    report(load_batches())
