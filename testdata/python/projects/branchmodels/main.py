import sys

from models import Small, Wide


def run(feed, held_out, epochs):
    if sys.argv[1] == "wide":
        model = Wide()
    else:
        model = Small()
    for epoch in range(epochs):
        model.train()
        for x in feed:
            model(x).backward()
        model.eval()
        print(model.valid_model(held_out))  # ok: either class's valid_model runs its forward under no_grad
        for x in held_out:
            print(model(x).item())  # want: TL201 "after `model.eval\(\)`"
