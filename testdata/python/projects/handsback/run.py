import torch

from agents import Team, act, act_logged


def rollout(env, steps):
    team = Team(2)
    obs = env.reset()
    for _ in range(steps):
        moves = team.select(torch.as_tensor(obs)).data.numpy()  # want: TL201 "through `Team.select`"
        obs, reward, done, _ = env.step(moves)


def play(env, steps):
    state = env.reset()
    for _ in range(steps):
        move = act(torch.as_tensor(state)).argmax().item()  # want: TL201 "through `act`"
        state, reward, done, _ = env.step(move)


def imitate(states, targets, opt):
    for s, y in zip(states, targets):
        loss = (act(s) - y).pow(2).mean()  # ok: the outputs it hands back are trained
        opt.zero_grad()
        loss.backward()
        opt.step()


def play_logged(env, steps, log):
    state = env.reset()
    for _ in range(steps):
        move = act_logged(torch.as_tensor(state), log).argmax().item()  # ok: it also keeps the outputs in the caller's list
        state, reward, done, _ = env.step(move)
