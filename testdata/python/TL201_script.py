# A script that loads its model at module level, switches it to
# evaluation mode there, and defines the functions that use it.
import numpy as np
import torch

cuda = torch.cuda.is_available()
checkpoint = torch.load("checkpoint.pth", map_location="cpu")
model = checkpoint["model"]
model.eval()
generator = checkpoint["generator"]
Tensor = torch.cuda.FloatTensor if cuda else torch.Tensor


def detect(image, min_score):
    locs, scores = model(image.unsqueeze(0))  # want: TL201 "on `model`, which this module switches to evaluation mode"
    return model.detect_objects(locs, scores, min_score=min_score)


def sample_images(real_a, latent_dim):
    generator.eval()
    z = Tensor(np.random.normal(0, 1, (latent_dim, latent_dim)))  # ok: a tensor type, not a model
    fake_b = generator(real_a, z)  # want: TL201 "after `generator.eval\(\)`"
    generator.train()
    return fake_b.data.cpu()


def train_step(opt, real_a, real_b, z):
    opt.zero_grad()
    loss = (generator(real_a, z) - real_b).abs().mean()  # ok: trained, and switched back to training above
    loss.backward()
    opt.step()
