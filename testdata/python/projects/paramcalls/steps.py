"""Training steps that run the networks and the loss they are handed."""


def train_discriminator(data, label, discriminator, criterion):
    output = discriminator(data)[0].view(-1)
    error = criterion(output, label)
    error.backward()
    return error, output.mean().item()


def train_generator(discriminator, data, label, criterion):
    # `data`'s graph runs through `discriminator(data)` and `criterion`,
    # both handed in: the backward below runs through it.
    output = discriminator(data)[0].view(-1)
    error = criterion(output, label)
    error.backward()
    return error, output.mean().item()


def score(discriminator, data):
    # Runs a network it is handed, back-propagates nothing.
    return discriminator(data)[0].mean().item()  # want: TL201
