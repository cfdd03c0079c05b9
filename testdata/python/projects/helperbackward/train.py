from steps import score, train_generator


def fit(gen, disc, opt, loader):
    epoch_loss, epoch_score = 0.0, 0.0
    for x in loader:
        g_loss, fake = train_generator(gen, disc, opt, x)
        epoch_loss += g_loss  # want: TL101 "after its backward"
        epoch_score += score(gen, x)  # want: TL101 "seen to run through"
    return epoch_loss, epoch_score
