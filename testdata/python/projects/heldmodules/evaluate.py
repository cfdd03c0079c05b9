"""Evaluation through the holder's attributes: its modules are models by
what the holder builds, not by their names."""
import torch

from model import Seq2Seq


class Evaluator:
    def __init__(self, loader):
        self.model = Seq2Seq(is_eval=True)
        self.loader = loader

    def eval_one_batch(self, x, gold):
        states, _ = self.model.encoder(x)  # want: TL201(medium) "in `eval_one_batch`"
        logits = self.model.decoder(states)
        return self.model.scorer(logits.detach().cpu().numpy(), gold)  # ok: a scorer of the project, no module

    @torch.no_grad()
    def eval_quietly(self, x, gold):
        states, _ = self.model.encoder(x)  # ok: under no_grad
        return self.model.scorer(self.model.decoder(states).cpu().numpy(), gold)

    def run(self):
        scores = []
        for x, y in self.loader:
            scores.append(self.eval_one_batch(x, y))
            scores.append(self.eval_quietly(x, y))
        return scores
