"""TL201: a script's passes in loops over a few values written out in
the code (`range(3)`, `enumerate([a, b])`) run a few times, once each:
they sit below the passes a loop over data repeats."""
import matplotlib.pyplot as plt
import torch

model = torch.load("model.pt", map_location="cpu")
model.eval()
samples = torch.load("samples.pt")

for index in range(3):
    out = model(samples[index].unsqueeze(0))  # want: TL201(low) "after `model.eval\(\)`"
    plt.imshow(out.detach().squeeze().numpy())

for index, size in enumerate([(32, 64), (64, 128)]):
    out = model(samples[index].unsqueeze(0))  # ok: another pass of the same region, listed with it
    plt.imshow(out.detach().squeeze().numpy())


def predict_all(net, data):
    net.eval()
    for index in range(len(data)):
        print(net(data[index].unsqueeze(0)).argmax().item())  # want: TL201(medium) "in `predict_all`"


def fit(net, opt, test_x, batches):
    for epoch in range(3):
        net.eval()
        print(epoch, net(test_x).sum().item())  # want: TL201(high) "after `net.eval\(\)`"
        net.train()
        for bx in batches:
            loss = net(bx).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    probe = torch.load("probe.pt")
    probe.eval()
    for i in range(1):
        print(probe(samples[:2]).argmax(1).tolist())  # want: TL201(low) "after `probe.eval\(\)`"
    with torch.no_grad():
        for i in range(1):
            print(probe(samples[:2]).argmax(1).tolist())  # ok: grad is disabled
