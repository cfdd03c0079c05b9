"""TL201: a script's training loop that saves samples of a fixed noise
every few iterations. The sample runs again and again, so it is no dry
run, though its input is made once; a `del` of the name that holds it
reads nothing."""
import torch
import torchvision.utils as vutils
from torch import nn

G = nn.Sequential(nn.Linear(8, 16), nn.Tanh())
D = nn.Sequential(nn.Linear(16, 1))
optimizerG = torch.optim.Adam(G.parameters())
z = torch.FloatTensor(4, 8)
z_test = torch.FloatTensor(4, 8).normal_(0, 1)

for i in range(10000):
    if i % 500 == 0:
        fake_test = G(z_test)  # want: TL201(medium) "only reach the host.*`fake_test`, a module-level name"
        vutils.save_image(fake_test.data, "fake_%05d.png" % i)
    z.normal_(0, 1)
    errG = -D(G(z)).mean()
    optimizerG.zero_grad()
    errG.backward()
    optimizerG.step()

del fake_test

# One look at the generator before it is saved: a dry run, run once.
sample = G(torch.FloatTensor(4, 8).normal_(0, 1))  # ok: one sample of noise, once
print(sample.shape)
