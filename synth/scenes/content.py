"""Random page content (names, products, posts, prices) in English and Chinese."""
import numpy as np

WORDS = {
    "en": {
        "site": ["Northwind", "Bluebird Market", "Acme Store", "Pinecone", "Lumen", "Harbor & Co", "Maple Goods", "Orbit"],
        "product": ["Wireless Earbuds", "Ceramic Mug", "Running Shoes", "Desk Lamp", "Backpack", "Water Bottle",
                    "Mechanical Keyboard", "Wool Scarf", "Sunglasses", "Phone Case", "Notebook Set", "Coffee Grinder"],
        "person": ["Alex Kim", "Maria Lopez", "Sam Patel", "Jordan Lee", "Priya Shah", "Chris Wong", "Emma Brown", "Noah Davis"],
        "title": ["How do you keep a sourdough starter alive?", "Best budget laptops this year",
                  "City council approves new bike lanes", "Ask me anything about home networking",
                  "Weekend hiking trails near the coast", "Why my tomatoes split after rain",
                  "Local library extends opening hours", "Tips for a first marathon"],
        "nav": ["Home", "Shop", "Deals", "Orders", "Help", "Account", "News", "Community"],
        "city": ["Seattle", "Austin", "Denver", "Boston", "Chicago", "Portland"],
    },
    "zh": {
        "site": ["北风商城", "蓝鸟市场", "优选好物", "松果", "流明", "海港生活", "枫叶小铺", "轨道"],
        "product": ["无线耳机", "陶瓷马克杯", "跑步鞋", "台灯", "双肩包", "保温水杯",
                    "机械键盘", "羊毛围巾", "太阳镜", "手机壳", "笔记本套装", "咖啡磨豆机"],
        "person": ["李明", "王芳", "张伟", "刘洋", "陈静", "杨帆", "赵磊", "黄婷"],
        "title": ["怎样养好酸面团酵种？", "今年值得买的平价笔记本", "市里通过新建自行车道方案",
                  "关于家庭网络的问题都可以问我", "周末海边徒步路线推荐", "下雨后番茄为什么会裂开",
                  "本地图书馆延长开放时间", "第一次跑马拉松的建议"],
        "nav": ["首页", "商城", "优惠", "订单", "帮助", "账户", "资讯", "社区"],
        "city": ["北京", "上海", "广州", "深圳", "杭州", "成都"],
    },
}

WIDGET_TEXT = {
    "en": {"verify": "Verify", "refresh": "New challenge", "placeholder": "Type your answer",
           "brand": "Security check", "skip": "Skip"},
    "zh": {"verify": "验证", "refresh": "换一个", "placeholder": "请输入答案", "brand": "安全验证", "skip": "跳过"},
}


def _pick(rng: np.random.Generator, items: list, k: int) -> list:
    return [items[i] for i in rng.permutation(len(items))[:k]]


def make_content(rng: np.random.Generator, lang: str) -> dict:
    """Draw the text a page shows: site name, nav, products with prices, people, posts."""
    w = WORDS[lang]
    currency = "¥" if lang == "zh" else "$"
    products = [{"name": n, "price": f"{currency}{rng.integers(5, 400)}.{rng.integers(0, 100):02d}",
                 "rating": round(float(rng.uniform(3.0, 5.0)), 1), "reviews": int(rng.integers(3, 4000))}
                for n in _pick(rng, w["product"], 8)]
    posts = [{"title": t, "author": a, "replies": int(rng.integers(0, 300)), "votes": int(rng.integers(0, 2000))}
             for t, a in zip(_pick(rng, w["title"], 6), _pick(rng, w["person"], 6))]
    return {
        "site": w["site"][int(rng.integers(len(w["site"])))],
        "nav": _pick(rng, w["nav"], 5),
        "products": products,
        "people": _pick(rng, w["person"], 6),
        "posts": posts,
        "city": w["city"][int(rng.integers(len(w["city"])))],
        "user": w["person"][int(rng.integers(len(w["person"])))],
        "order_no": f"{rng.integers(10**7, 10**8)}",
        "time": f"{rng.integers(7, 23):02d}:{rng.integers(0, 60):02d}",
    }
