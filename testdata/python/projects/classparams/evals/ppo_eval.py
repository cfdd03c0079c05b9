import torch


def evaluate(model_path, envs, eval_episodes, Model: torch.nn.Module, device="cpu"):
    agent = Model(envs).to(device)
    agent.load_state_dict(torch.load(model_path, map_location=device))
    agent.eval()
    obs = envs.reset()
    returns = []
    while len(returns) < eval_episodes:
        actions, _, _, _ = agent.get_action_and_value(torch.Tensor(obs).to(device))  # want: TL201(medium) "through `Agent.get_action_and_value`"
        obs, reward = envs.step(actions.cpu().numpy())
        returns.append(reward)
    return returns


@torch.no_grad()
def evaluate_quietly(model_path, envs, eval_episodes, Model: torch.nn.Module, device="cpu"):
    agent = Model(envs).to(device)
    agent.eval()
    obs = envs.reset()
    returns = []
    while len(returns) < eval_episodes:
        actions, _, _, _ = agent.get_action_and_value(torch.Tensor(obs).to(device))  # ok: under the decorator's no_grad
        obs, reward = envs.step(actions.cpu().numpy())
        returns.append(reward)
    return returns
