import torch

from base_trainer import BaseTrainer


class AutoencoderTrainer(BaseTrainer):
    @property
    def model(self):
        return self._model

    def predict(self, x):
        code = self.model.encoder(x)  # ok: BaseTrainer.run back-propagates what this returns
        return self.model.decoder(code)

    def _on_step_end(self, step):
        if step % 100 == 0:
            self._sample()

    def _sample(self):
        with torch.no_grad():
            x, _ = next(iter(self._loader))
            print(self.model.decoder(self.model.encoder(x)).mean().item())


class ProbeTrainer(AutoencoderTrainer):
    def probe(self, x):
        code = self.model.encoder(x)  # want: TL201 "outputs only reach the host"
        return code.norm().item()

    def predict_norm(self, x):
        return self.model.encoder(x).norm(dim=-1)  # want: TL201 "in `predict_norm`"
