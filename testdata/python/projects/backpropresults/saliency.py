from attribution import Embedding


class Gradients(Embedding):
    def run(self, batches):
        maps = []
        for src in batches:
            src = src.clone().requires_grad_(True)
            logit, _ = self.predict_logits(src, 1)
            maps.append(self.input_grads(logit, src).detach().cpu())
        return maps

    def show(self, batches):
        return [self.predict_probs(src).argmax(-1).tolist() for src in batches]
