import torch

from steps import score, train_discriminator, train_generator


def train(loader, discriminator, generator, optimizer_d, optimizer_g, criterion):
    g_losses, d_losses = [], []
    for data, label in loader:
        discriminator.zero_grad()
        error_d_real, _ = train_discriminator(data, label, discriminator, criterion)
        fake = generator(torch.randn(data.size(0), 100))  # ok: train_generator back-propagates it
        error_d_fake, _ = train_discriminator(fake.detach(), label, discriminator, criterion)
        error_d = error_d_real + error_d_fake
        optimizer_d.step()
        generator.zero_grad()
        error_g, _ = train_generator(discriminator, fake, label, criterion)
        optimizer_g.step()
        g_losses.append(error_g.item())
        d_losses.append(error_d.item())
    return g_losses, d_losses


def sample_scores(loader, discriminator, generator):
    generator.eval()
    scores = []
    for data, _ in loader:
        fake = generator(torch.randn(data.size(0), 100))  # want: TL201
        scores.append(score(discriminator, fake))
    return scores

