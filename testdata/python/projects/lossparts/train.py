"""A pix2pix-style loop given its loss function by the caller."""
import torch

from losses import classification_loss, generator_loss


def fit_generator(gen, disc, g_opt, loader, loss_fn):
    adv_total, l1_total = 0, 0
    for src, tgt in loader:
        g_opt.zero_grad()
        fake = gen(src)
        loss, adv, l1 = loss_fn(disc(torch.cat([src, fake], 1)), fake, tgt)
        loss.backward()
        g_opt.step()
        adv_total += adv  # want: TL101 "adv_total \+= adv"
        l1_total += l1.item()  # ok: a Python number
    return adv_total, l1_total


def fit_classifier(model, opt, loader, loss_fn):
    acc_total = 0.0
    for x, y in loader:
        opt.zero_grad()
        loss, acc = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        acc_total += acc  # ok: classification_loss returns a Python float there
    return acc_total


def main(gen, disc, classifier, loader, labelled):
    g_opt = torch.optim.Adam(gen.parameters(), lr=2e-4)
    fit_generator(gen, disc, g_opt, loader, generator_loss)
    fit_classifier(classifier, torch.optim.SGD(classifier.parameters(), lr=0.1), labelled, classification_loss)
