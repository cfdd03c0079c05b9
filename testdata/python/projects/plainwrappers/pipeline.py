"""A generation pipeline that encodes the prompt with grad enabled."""
import torch

from encoders import Captioner, Predictor, FocalLoss, HubEncoder, PromptEncoder, ShardedEncoder, TextEncoder, TrainableEncoder


class Pipeline:
    def __init__(self, unet, config):
        self.text_encoder = TextEncoder()
        self.hub_encoder = HubEncoder(config)
        self.trainable_encoder = TrainableEncoder()
        self.unet = unet

    def generate(self, ids, steps):
        self.unet.eval()
        context = self.text_encoder(ids, "cuda")  # ok: a plain wrapper of a frozen module
        with torch.no_grad():
            x = torch.randn(1, 8)
            for _ in range(steps):
                x = self.unet(x, context)
        return x

    def generate_hub(self, ids, steps):
        self.unet.eval()
        context = self.hub_encoder(ids)  # want: TL201
        with torch.no_grad():
            x = torch.randn(1, 8)
            for _ in range(steps):
                x = self.unet(x, context)
        return x

    def generate_trainable(self, ids, steps):
        self.unet.eval()
        context = self.trainable_encoder(ids)  # want: TL201
        with torch.no_grad():
            x = torch.randn(1, 8)
            for _ in range(steps):
                x = self.unet(x, context)
        return x


def validate(model, loader):
    criterion = FocalLoss()
    model.eval()
    val_loss = 0
    for x, y in loader:
        val_loss += criterion(model(x), y)  # want: TL101 TL201
    return val_loss.item()


def encode_prompts(batches):
    encoder = PromptEncoder()
    return [encoder(prompts).mean().item() for prompts in batches]  # ok: the model it runs is frozen


def captions(loader):
    model = Captioner(decoder=torch.nn.Linear(8, 8))
    model.eval()
    return [model(ids).argmax(-1).tolist() for ids in loader]  # want: TL201


def encode_sharded(batches):
    encoder = ShardedEncoder()
    return [encoder(texts, "cuda").mean().item() for texts in batches]  # ok: its model is frozen, sharded or not


def predict_all(batches):
    model = Predictor()
    return [model.forward(ids).argmax(-1).tolist() for ids in batches]  # ok: its forward runs under no_grad


predictor = Predictor()
predictor.eval()


def predict(ids):
    out = predictor(ids)  # ok: the same, called as a module would be
    print(int(out.argmax()))
