"""Loss functions that return the loss with its terms, or with numbers to report."""
import torch
import torch.nn.functional as F


def generator_loss(fake_logits, fake, real, l1_weight=100.0):
    adv = F.binary_cross_entropy_with_logits(fake_logits, torch.ones_like(fake_logits))
    l1 = F.l1_loss(fake, real)
    return adv + l1_weight * l1, adv, l1


def classification_loss(logits, labels):
    loss = F.cross_entropy(logits, labels)
    acc = (logits.argmax(1) == labels).float().mean().item()
    return loss, acc
