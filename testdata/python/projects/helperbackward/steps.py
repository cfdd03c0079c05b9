"""Steps that another file calls: one back-propagates the loss it
returns, the other returns a score it never back-propagates."""


def train_generator(gen, disc, opt, x):
    opt.zero_grad()
    fake = gen(x)
    loss = -disc(fake).mean()
    loss.backward()
    opt.step()
    return loss, fake


def score(gen, x):
    return gen(x).mean()
