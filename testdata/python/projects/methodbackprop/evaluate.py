"""The critic reaches these functions as a parameter: its methods are
known by their names alone."""


def train_critic(encoder, critic, optimizer, loader):
    encoder.eval()
    total = 0.0
    for x, s in loader:
        z = encoder(x)  # ok: every method named update in the project back-propagates its first argument
        total += critic.update(z, s, optimizer)
    return total


def report(encoder, critic, loader):
    encoder.eval()
    for x, s in loader:
        z = encoder(x)  # want: TL201
        print(critic.estimate(z, s))
