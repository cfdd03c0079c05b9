"""TL201: token samplers that feed a model its own samples, from a constant first token."""
import torch
from torch import nn


class TokenModel(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tok):
        return self.out(self.emb(tok))

    def sample(self, n, length):
        tok = torch.zeros(n, dtype=torch.long)
        seq = []
        for _ in range(length):
            tok = torch.multinomial(self.forward(tok).softmax(-1), 1).view(-1)  # want: TL201 "only reach the host"
            seq.append(tok)
        return torch.stack(seq, 1)

    def probe(self, steps):
        h = torch.zeros(2, dtype=torch.long)
        logits = self.forward(h)  # ok: a constant input read for its shape, a dry run
        return logits.shape[-1] * steps


class Trainer:
    def __init__(self):
        self.model = TokenModel()
        self.opt = torch.optim.Adam(self.model.parameters())

    def to_gpu(self):
        self.model = self.model.cuda()  # the same module, moved

    def train_step(self, tok, target):
        loss = nn.functional.cross_entropy(self.model(tok), target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()

    def report(self):
        return self.model.sample(4, 8).tolist()  # ok: reported in `TokenModel.sample`


if __name__ == "__main__":
    t = Trainer()
    t.train_step(torch.zeros(4, dtype=torch.long), torch.zeros(4, dtype=torch.long))
    print(t.report())
