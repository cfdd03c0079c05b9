import torch.nn as nn


class BowModel(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.encoder = nn.Embedding(vocab, hidden)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x):
        return self.out(self.encoder(x))

    def decode(self, x):
        # Every call of `.decode` that a program of bow/ can make runs
        # under no_grad; bpe/old.py's runs with grad on, but no program
        # runs it with this file: its objects are another class's.
        return self.out(self.encoder(x)).argmax(-1).tolist()  # ok: its callers disable grad

    def sample(self, x):
        return self.out(self.encoder(x)).argmax(-1).tolist()  # want: TL201(medium)
