import torch
import torch.nn.functional as F

from base_trainer import BaseTrainer


class AutoencoderTrainer(BaseTrainer):
    @property
    def model(self):
        return self._model

    def _compute_losses(self, batch):
        x, y = batch
        code = self.model.encoder(x)  # ok: BaseTrainer.run back-propagates what this returns
        pred = self.model.decoder(code)
        return {"total": F.mse_loss(pred, y)}

    def _on_step_end(self, step):
        if step % 100 == 0:
            self._sample()

    def _sample(self):
        self.model.eval()
        with torch.no_grad():
            x, _ = next(iter(self._loader))
            print(self.model.decoder(self.model.encoder(x)).mean().item())


class ProbeTrainer(AutoencoderTrainer):
    def probe(self, x):
        code = self.model.encoder(x)  # want: TL201 "outputs only reach the host"
        return code.norm().item()
