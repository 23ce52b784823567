"""Random page content (names, products, posts, prices) in English and Chinese."""
import numpy as np

WORDS = {
    "en": {
        "site": ["Northwind", "Bluebird", "Acme", "Pinecone", "Lumen", "Harbor", "Maple", "Orbit"],   # any kind of site
        "product": ["Wireless Headphones", "Ceramic Mug", "Running Shoes", "Desk Lamp", "Backpack", "Water Bottle",
                    "Mechanical Keyboard", "Wool Scarf", "Sunglasses", "Phone Case", "Notebook Set", "Coffee Grinder"],
        # what each product above costs, lowest and highest whole units: a price fits the product
        "product_prices": [(29, 199), (8, 28), (49, 160), (19, 89), (29, 129), (12, 45), (49, 199), (19, 79), (15, 159),
                           (9, 35), (8, 29), (25, 149)],
        "person": ["Alex Kim", "Maria Lopez", "Sam Patel", "Jordan Lee", "Priya Shah", "Chris Wong", "Emma Brown",
                   "Noah Davis"],
        "title": ["How do you keep a sourdough starter alive?", "Best budget laptops this year",
                  "City council approves new bike lanes", "Ask me anything about home networking",
                  "Weekend hiking trails near the coast", "Why my tomatoes split after rain",
                  "Local library extends opening hours", "Tips for a first marathon"],
        "nav": ["Home", "Shop", "Deals", "Orders", "Help", "Account", "News", "Community"],
        "city": ["Seattle", "Austin", "Denver", "Boston", "Chicago", "Portland"],
        "title_topic": ["Cooking", "Tech", "Local", "Tech", "Outdoors", "Gardening", "Local", "Running"],
        "mail_files": {"Quarterly report draft": ("Q3 report draft.pdf", "2.4 MB"),
                       "Invoice #4821 is due next week": ("Invoice 4821.pdf", "86 KB"),
                       "Photos from the weekend": ("Hike photos.zip", "48.2 MB"),
                       "Meeting notes: product sync": ("Product sync notes.docx", "31 KB"),
                       "Registration confirmed": ("Conference badge.pdf", "120 KB")},
        "mail": [
            (None, "Quarterly report draft", "Hi, attached is the first draft of the Q3 report. Could you review the "
             "sales section and send me your comments by Thursday? The charts on pages 6 and 7 still need updated "
             "numbers."),
            ("Shipping Updates", "Your order has shipped", "Good news! Your package is on its way and should arrive "
             "within 3-5 business days. You can track the delivery from your account page."),
            (None, "Team lunch on Friday", "We're planning a team lunch this Friday at 12:30 at the Italian place "
             "around the corner. Please reply by Wednesday so we can book a table."),
            ("Billing Team", "Invoice #4821 is due next week", "This is a friendly reminder that invoice #4821 is due "
             "next week. If you have already paid, please ignore this message."),
            (None, "Photos from the weekend", "Here are the photos from Saturday's hike. The ones from the lookout "
             "came out really well! Let me know if you want the full-size files."),
            (None, "Meeting notes: product sync", "Thanks everyone for joining. Action items: finalize the onboarding "
             "flow, update the pricing page, and share the survey results before the next sync."),
            ("Security Alerts", "Your password was changed", "The password for your account was changed successfully. "
             "If you did not make this change, please contact support right away."),
            ("Weekly Digest", "This week: easy dinners and spring gardening", "Five easy recipes for busy evenings, "
             "a beginner's guide to spring gardening, and the best reader photos of the month."),
            (None, "Re: apartment viewing", "Thanks for your interest. The apartment is still available, and you can "
             "visit on Tuesday or Wednesday after 5 pm. Please bring a photo ID."),
            ("Events Team", "Registration confirmed", "Your conference registration is confirmed. Your badge will be "
             "waiting at the front desk. We look forward to seeing you there."),
        ],
        "merchant": [("Corner Coffee", "food"), ("Fresh Market", "shop"), ("City Metro", "transport"),
                     ("Green Grocer", "shop"), ("Sunset Diner", "food"), ("Power & Light Co.", "bill"),
                     ("Cinema Plaza", "fun"), ("Quick Cab", "transport"), ("Bookworm Books", "shop"),
                     ("Mobile Plan", "bill")],
        "salary": "Salary",
        "transfer_from": "Transfer from {}",
        "today": "Today",
        "yesterday": "Yesterday",
        "weekday": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
        "month_day": "{m} {d}",
        "month": ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
        "street": ["1420 Pine Street", "88 Harbor Avenue", "305 Maple Drive", "17 Oak Lane", "2210 Lake View Road",
                   "64 Elm Court"],
    },
    "zh": {
        "site": ["北风", "蓝鸟", "青禾", "松果", "流明", "海港", "枫叶", "轨道"],
        "product": ["无线耳机", "陶瓷马克杯", "跑步鞋", "台灯", "双肩包", "保温水杯",
                    "机械键盘", "羊毛围巾", "太阳镜", "手机壳", "笔记本套装", "咖啡磨豆机"],
        "product_prices": [(99, 999), (19, 89), (199, 899), (59, 299), (89, 499), (39, 199), (199, 899), (59, 299),
                           (49, 599), (19, 89), (15, 69), (99, 599)],
        "person": ["李明", "王芳", "张伟", "刘洋", "陈静", "杨帆", "赵磊", "黄婷"],
        "title": ["怎样养好酸面团酵种？", "今年值得买的平价笔记本", "市里通过新建自行车道方案",
                  "关于家庭网络的问题都可以问我", "周末海边徒步路线推荐", "下雨后番茄为什么会裂开",
                  "本地图书馆延长开放时间", "第一次跑马拉松的建议"],
        "nav": ["首页", "商城", "优惠", "订单", "帮助", "账户", "资讯", "社区"],
        "city": ["北京", "上海", "广州", "深圳", "杭州", "成都"],
        "title_topic": ["美食", "数码", "本地", "数码", "户外", "园艺", "本地", "跑步"],
        "mail_files": {"第三季度报告初稿": ("第三季度报告初稿.pdf", "2.4 MB"),
                       "账单 #4821 将于下周到期": ("账单4821.pdf", "86 KB"),
                       "周末的照片": ("爬山照片.zip", "48.2 MB"),
                       "会议纪要：产品周会": ("产品周会纪要.docx", "31 KB"),
                       "会议报名成功": ("参会胸卡.pdf", "120 KB")},
        "mail": [
            (None, "第三季度报告初稿", "你好，附件是第三季度报告的初稿。麻烦看一下销售部分，周四前把意见发给我。"
             "第6页和第7页的图表还需要更新数据。"),
            ("物流通知", "您的订单已发货", "好消息！您的包裹已发出，预计3到5个工作日内送达。"
             "您可以在账户页面查看物流信息。"),
            (None, "周五团队聚餐", "我们计划本周五中午12点半在街角的意大利餐厅聚餐。请在周三前回复，方便我们订位。"),
            ("账单中心", "账单 #4821 将于下周到期", "温馨提示：账单 #4821 将于下周到期。如果您已付款，请忽略此邮件。"),
            (None, "周末的照片", "这是周六爬山拍的照片，观景台那几张拍得特别好！需要原图的话告诉我。"),
            (None, "会议纪要：产品周会", "感谢大家参会。待办事项：完成新用户引导流程，更新价格页面，"
             "并在下次周会前分享问卷结果。"),
            ("安全中心", "您的密码已修改", "您账户的密码已成功修改。如果这不是您本人的操作，请立即联系客服。"),
            ("每周精选", "本周精选：快手晚餐与春季园艺", "五道适合忙碌晚上的快手菜、春季园艺入门指南，"
             "以及本月最佳读者摄影作品。"),
            (None, "回复：看房时间", "感谢您的关注。房子还在出租，周二或周三下午5点后都可以来看，请带上身份证件。"),
            ("会务组", "会议报名成功", "您的参会报名已确认，胸卡可在前台领取。期待与您相见。"),
        ],
        "merchant": [("街角咖啡", "food"), ("鲜果超市", "shop"), ("城市地铁", "transport"), ("社区菜店", "shop"),
                     ("老王面馆", "food"), ("电费缴纳", "bill"), ("星光影城", "fun"), ("快车出行", "transport"),
                     ("书香书店", "shop"), ("话费充值", "bill")],
        "salary": "工资",
        "transfer_from": "来自{}的转账",
        "today": "今天",
        "yesterday": "昨天",
        "weekday": ["周一", "周二", "周三", "周四", "周五", "周六", "周日"],
        "month_day": "{m}月{d}日",
        "month": [str(i) for i in range(1, 13)],
        "street": ["人民路 128 号", "中山路 56 号", "解放路 203 号", "建设路 17 号", "和平街 9 号院 3 栋",
                   "文化路 66 号"],
    },
}

# What a card payment costs, by the merchant's category (a cab is not a laptop)
SPEND = {"food": (3, 45), "transport": (2, 60), "shop": (5, 180), "bill": (20, 150), "fun": (8, 60)}

WIDGET_TEXT = {
    "en": {"verify": "Verify", "refresh": "New challenge", "placeholder": "Your answer",
           "brand": "Security check", "skip": "Skip", "close": "Close", "help": "Help", "audio": "Audio challenge",
           "checking": "Checking your browser before you continue",
           "gate_note": "This quick security check protects the site from automated traffic. It takes a moment.",
           "sheet_title": "Security verification", "gate_foot": "The site opens once the check is done."},
    "zh": {"verify": "验证", "refresh": "换一个", "placeholder": "请输入答案",
           "brand": "安全验证", "skip": "跳过", "close": "关闭",
           "help": "帮助", "audio": "语音验证", "checking": "正在检查您的浏览器，请稍候",
           "gate_note": "为保护网站免受自动程序访问，请先完成下面的安全验证。",
           "sheet_title": "安全验证", "gate_foot": "验证通过后将自动打开页面。"},
}


CENTS = (0.0, 0.49, 0.9, 0.99)     # how shops end prices


def _pick(rng: np.random.Generator, items: list, k: int) -> list:
    return [items[i] for i in rng.permutation(len(items))[:k]]


def make_content(rng: np.random.Generator, lang: str) -> dict:
    """Draw the text a page shows: site name, nav, products with prices, people, posts."""
    w = WORDS[lang]
    currency = "¥" if lang == "zh" else "$"
    products = []
    for i in rng.permutation(len(w["product"]))[:8]:
        lo, hi = w["product_prices"][int(i)]
        value = int(rng.integers(lo, hi + 1)) + float(rng.choice(CENTS))
        products.append({"name": w["product"][int(i)], "price": f"{currency}{value:.2f}", "value": value,
                         "rating": round(float(rng.uniform(3.0, 5.0)), 1), "reviews": int(rng.integers(3, 4000))})
    posts = [{"title": t, "author": a, "replies": int(rng.integers(0, 300)), "votes": int(rng.integers(0, 2000))}
             for t, a in zip(_pick(rng, w["title"], 6), _pick(rng, w["person"], 6))]
    out = {
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
    # Everything below is drawn after the keys above, so those stay the same for a given seed.
    out.update(_more_content(rng, lang, out))
    # Drawn last of all, so that everything above keeps its value for a given seed.
    out.update(_screen_content(rng, lang, out))
    return out


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _money(currency: str, x: float, sign: str = "") -> str:
    return f"{sign}{currency}{x:,.2f}"


def _more_content(rng: np.random.Generator, lang: str, c: dict) -> dict:
    """Content for the feed, mail, wallet and checkout pages."""
    w = WORDS[lang]
    currency = "¥" if lang == "zh" else "$"
    now = int(c["time"][:2]) * 60 + int(c["time"][3:])
    others = [p for p in w["person"] if p != c["user"]]
    today_wd = int(rng.integers(7))

    def day_label(offset: int) -> str:
        return w["today"] if offset == 0 else w["yesterday"] if offset == 1 else w["weekday"][(today_wd - offset) % 7]

    # feed / forum: topic of each post
    post_topics = [w["title_topic"][w["title"].index(p["title"])] for p in c["posts"]]

    # mail: nine messages, newest first
    mail_picks = _pick(rng, w["mail"], 9)
    mail_people = _pick(rng, others, len(others))
    today_times = sorted(rng.integers(6 * 60, now, 3).tolist(), reverse=True)
    month = w["month"][int(rng.integers(12))]
    day1 = int(rng.integers(10, 28))
    day2 = day1 - int(rng.integers(1, 6))
    mail_times = ([_clock(m) for m in today_times] + [day_label(k) for k in (1, 2, 3, 4)]
                  + [w["month_day"].format(m=month, d=d) for d in (day1, day2)])
    unread, starred, attach = rng.random(9) < 0.35, rng.random(9) < 0.2, rng.random(9) < 0.8
    # a message carries the file it speaks of, if any (most do): the reading pane shows that file
    files = [w["mail_files"].get(subject) if attach[i] else None for i, (_, subject, _) in enumerate(mail_picks)]
    mails = [{"sender": sender or mail_people[i % len(mail_people)], "org": sender is not None, "subject": subject,
              "body": body, "time": mail_times[i], "unread": bool(unread[i]), "starred": bool(starred[i]),
              "attach": files[i] is not None, "file": files[i] or ("", "")}
             for i, (sender, subject, body) in enumerate(mail_picks)]

    # wallet: balance and eight recent transactions
    balance = float(rng.uniform(800, 25000))
    card_last4 = f"{int(rng.integers(0, 10000)):04d}"
    merchants = _pick(rng, w["merchant"], 8)
    income = rng.random(8) < 0.2
    spend = rng.random(8)       # where in its category's range (SPEND) a payment lies
    earn = rng.random(8)
    salary = rng.random(8) < 0.5
    spend = np.array([SPEND[cat][0] + f * (SPEND[cat][1] - SPEND[cat][0]) for f, (_, cat) in zip(spend, merchants)])
    earn = np.where(salary, 1500 + earn * 4500, 20 + earn * 480)     # a salary, or a friend paying back
    payers = _pick(rng, others, len(others))
    offsets = rng.integers(0, 6, 8)
    tx_frac = rng.random(8)
    # newest first: by day, then by time of day (today's transactions happened before now)
    when = sorted(((int(d), int(7 * 60 + f * ((now if d == 0 else 23 * 60) - 7 * 60)))
                   for d, f in zip(offsets, tx_frac)), key=lambda dm: (dm[0], -dm[1]))
    transactions = []
    for i, (name, cat) in enumerate(merchants):
        if income[i]:
            name = w["salary"] if salary[i] else w["transfer_from"].format(payers[i % len(payers)])
            amount, cat = _money(currency, float(earn[i]), "+"), "income"
        else:
            amount = _money(currency, float(spend[i]), "-")
        transactions.append({"name": name, "cat": cat, "amount": amount, "income": bool(income[i]),
                             "day": day_label(when[i][0]), "time": _clock(when[i][1])})
    spent = _money(currency, float(spend[~income].sum()))

    # checkout: shipping address
    street = w["street"][int(rng.integers(len(w["street"])))]
    # the city's own postal code: its prefix, the rest drawn
    prefix = ZIP_PREFIX[c["city"]]
    rest = (6 if lang == "zh" else 5) - len(prefix)
    zip_code = prefix + f"{int(rng.integers(0, 10 ** rest)):0{rest}d}"
    digits = int(rng.integers(0, 10000))
    mobile_prefix = int(rng.integers(30, 90))
    phone = (f"1{mobile_prefix}****{digits:04d}" if lang == "zh"          # a mobile number
             else f"({AREA_CODE[c['city']]}) 555-{digits:04d}")          # the city's own area code

    return {"post_topics": post_topics, "mails": mails,
            "balance": _money(currency, balance), "card_last4": card_last4, "transactions": transactions,
            "spent": spent, "street": street, "zip": zip_code, "phone": phone}


SCREEN_WORDS = {
    "en": {
        "domain": ["northwind", "bluebird", "acmestore", "pinecone", "lumen", "harborco", "maplegoods", "orbit"],
        "roles": ["Admin", "Editor", "Viewer", "Billing", "Editor"],
        "owner": "Owner",
        "status": {"active": "Active", "invited": "Invited", "suspended": "Suspended"},
        "never": "Never",
        "ago_m": "{} min ago", "ago_h": "{} hours ago", "ago_d": "{} days ago",
        "wifi": ["Home-5G", "Netgear-42", "Apartment 4B", "TP-Link_2F80", "Maple Street WiFi", "Linksys-Guest"],
        "carrier": ["Verizon", "T-Mobile", "AT&T", "Mint Mobile"],
        "folders": ["Archive", "Invoices", "Photos", "Design assets", "Meeting notes", "Drafts", "Receipts", "Scans"],
        "files": ["Q3 report.pdf", "Budget 2024.xlsx", "Project plan.docx", "Team offsite.pptx", "Logo final.png",
                  "Beach sunset.jpg", "Contract signed.pdf", "Podcast intro.mp3", "Product demo.mp4", "Backup.zip",
                  "Notes.txt", "analysis.py", "Travel itinerary.pdf", "Invoice-4821.pdf", "Floor plan.png",
                  "Expenses March.xlsx", "Cover letter.docx", "Recipe ideas.txt", "Interview recording.mp3",
                  "Website mockup.png", "Lease agreement.pdf", "Roadmap.pptx"],
        # what an image file's thumbnail shows (imagery subjects)
        "file_pics": {"Logo final.png": ["1f680", "2b50", "1f48e"], "Beach sunset.jpg": ["1f305", "sea"],
                      "Floor plan.png": ["1f3e0", "1f4d0"], "Website mockup.png": ["1f5a5-fe0f", "1f4bb"]},
        "project": ["Website redesign", "Spring campaign", "Office move", "Client onboarding", "Annual review"],
        "kinds": {"folder": "Folder", "pdf": "PDF document", "docx": "Word document", "xlsx": "Spreadsheet",
                  "pptx": "Presentation", "png": "PNG image", "jpg": "JPEG image", "mp3": "MP3 audio",
                  "mp4": "MPEG-4 video", "zip": "ZIP archive", "txt": "Plain text", "py": "Python script"},
        "today_at": "Today, {}", "yesterday_at": "Yesterday, {}", "date": "{m} {d}, 2024",
        "book": ["Department Budget", "Operating Costs 2024", "Team Expenses", "Cost Forecast", "Office Budget"],
        "categories": ["Rent", "Salaries", "Marketing", "Travel", "Software", "Office supplies", "Utilities",
                       "Insurance", "Training", "Equipment", "Consulting"],
        "sheets": ["Summary", "Q1", "Q2", "Q3", "Q4", "Notes"],
        # a comment and the budget line it is about (None: the sheet as a whole)
        "comments": [["Can we double-check the travel numbers?", "Travel"],
                     ["Updated with the final invoices.", "Consulting"],
                     ["Marketing looks high, is the launch campaign in here?", "Marketing"],
                     ["Looks good to me, ready to share.", None],
                     ["Software now includes the new design tool licences.", "Software"],
                     ["Please add a column for next year.", None]],
    },
    "zh": {
        "domain": ["beifeng", "lanniao", "youxuan", "songguo", "liuming", "haigang", "fengye", "guidao"],
        "roles": ["管理员", "编辑者", "查看者", "财务", "编辑者"],
        "owner": "所有者",
        "status": {"active": "已激活", "invited": "待接受", "suspended": "已停用"},
        "never": "从未登录",
        "ago_m": "{} 分钟前", "ago_h": "{} 小时前", "ago_d": "{} 天前",
        "wifi": ["ChinaNet-5G", "TP-LINK_3F2A", "CMCC-8E6B", "Xiaomi_5G", "HUAWEI-1207", "家里的WiFi"],
        "carrier": ["中国移动", "中国联通", "中国电信"],
        "folders": ["归档", "发票", "照片", "设计素材", "会议记录", "草稿", "报销单据", "扫描件"],
        "files": ["第三季度报告.pdf", "2024年预算.xlsx", "项目计划书.docx", "团队团建.pptx", "logo定稿.png",
                  "海边日落.jpg", "已签合同.pdf", "播客片头.mp3", "产品演示.mp4", "备份.zip",
                  "笔记.txt", "analysis.py", "旅行行程.pdf", "发票-4821.pdf", "户型图.png",
                  "三月报销.xlsx", "求职信.docx", "菜谱灵感.txt", "面试录音.mp3",
                  "网站效果图.png", "租房合同.pdf", "产品路线图.pptx"],
        "file_pics": {"logo定稿.png": ["1f680", "2b50", "1f48e"], "海边日落.jpg": ["1f305", "sea"],
                      "户型图.png": ["1f3e0", "1f4d0"], "网站效果图.png": ["1f5a5-fe0f", "1f4bb"]},
        "project": ["官网改版", "春季活动", "办公室搬迁", "客户接入", "年度总结"],
        "kinds": {"folder": "文件夹", "pdf": "PDF 文档", "docx": "Word 文档", "xlsx": "电子表格",
                  "pptx": "演示文稿", "png": "PNG 图像", "jpg": "JPEG 图像", "mp3": "MP3 音频",
                  "mp4": "MP4 视频", "zip": "ZIP 压缩文件", "txt": "文本文档", "py": "Python 脚本"},
        "today_at": "今天 {}", "yesterday_at": "昨天 {}", "date": "2024/{m}/{d}",
        "book": ["部门预算", "2024年运营成本", "团队费用", "费用预测", "办公室预算"],
        "categories": ["房租", "工资", "市场推广", "差旅", "软件订阅", "办公用品", "水电费", "保险", "培训",
                       "设备采购", "咨询服务"],
        "sheets": ["汇总", "第一季度", "第二季度", "第三季度", "第四季度", "备注"],
        "comments": [["差旅这几项能再核对一下吗？", "差旅"], ["已按最终发票更新。", "咨询服务"],
                     ["市场推广偏高，新品发布活动算进去了吗？", "市场推广"], ["我看没问题，可以发出去了。", None],
                     ["软件订阅已包含新设计工具的授权费用。", "软件订阅"], ["请加一列明年的预算。", None]],
    },
}
AREA_CODE = {"Seattle": "206", "Austin": "512", "Denver": "303", "Boston": "617", "Chicago": "312", "Portland": "503"}
ZIP_PREFIX = {"Seattle": "981", "Austin": "787", "Denver": "802", "Boston": "021", "Chicago": "606", "Portland": "972",
              "北京": "100", "上海": "200", "广州": "510", "深圳": "518", "杭州": "310", "成都": "610"}
PINYIN = {"李明": "liming", "王芳": "wangfang", "张伟": "zhangwei", "刘洋": "liuyang", "陈静": "chenjing",
          "杨帆": "yangfan", "赵磊": "zhaolei", "黄婷": "huangting"}
_SIZE_KB = {"folder": (0, 0), "pdf": (80, 6000), "docx": (20, 900), "xlsx": (15, 700), "pptx": (900, 24000),
            "png": (60, 4000), "jpg": (400, 9000), "mp3": (2000, 12000), "mp4": (20000, 900000), "zip": (5000, 400000),
            "txt": (1, 40), "py": (2, 60)}


def _size(kb: int, lang: str) -> str:
    if kb >= 1024 * 1024:
        return f"{kb / 1024 / 1024:.1f} GB"
    if kb >= 1024:
        return f"{kb / 1024:.1f} MB"
    return f"{kb} KB"


def _screen_content(rng: np.random.Generator, lang: str, c: dict) -> dict:
    """Content for the settings, file manager and spreadsheet pages."""
    w, x = WORDS[lang], SCREEN_WORDS[lang]
    site_i = w["site"].index(c["site"])
    domain = x["domain"][site_i] + (".com" if lang == "en" else ".cn")

    def email(name: str) -> str:
        return (name.lower().replace(" ", ".") if lang == "en" else PINYIN[name]) + "@" + domain

    def ago(minutes: int) -> str:
        n, unit = ((minutes, "ago_m") if minutes < 60 else (minutes // 60, "ago_h") if minutes < 60 * 24
                   else (minutes // (60 * 24), "ago_d"))
        text = x[unit].format(n)
        return text.replace("hours", "hour").replace("days", "day") if n == 1 else text

    # settings: the user (owner) and the other members of the workspace
    others = [p for p in w["person"] if p != c["user"]]
    names = _pick(rng, others, 7)
    roles = [x["roles"][int(i)] for i in rng.integers(0, len(x["roles"]), 7)]
    status = ["active" if s < 0.72 else "invited" if s < 0.9 else "suspended" for s in rng.random(7)]
    minutes = np.sort(rng.integers(3, 60 * 24 * 12, 7))
    members = [{"name": c["user"], "email": email(c["user"]), "role": x["owner"], "status": "active",
                "status_text": x["status"]["active"], "active": ago(1), "owner": True}]
    members += [{"name": n, "email": email(n), "role": r, "status": s, "status_text": x["status"][s],
                 "active": x["never"] if s == "invited" else ago(int(m)), "owner": False}
                for n, r, s, m in zip(names, roles, status, minutes)]
    toggles = [bool(b) for b in rng.random(8) < 0.55]
    seats = int(rng.integers(8, 40))

    # phone settings
    wifi = x["wifi"][int(rng.integers(len(x["wifi"])))]
    carrier = x["carrier"][int(rng.integers(len(x["carrier"])))]
    storage_used = round(float(rng.uniform(20, 230)), 1)

    # file manager: a project folder with a few sub-folders and files
    project = x["project"][int(rng.integers(len(x["project"])))]
    folders = sorted(_pick(rng, x["folders"], int(rng.integers(3, 5))))
    file_names = sorted(_pick(rng, x["files"], 19), key=str.lower)
    now = int(c["time"][:2]) * 60 + int(c["time"][3:])
    files = []
    for i, name in enumerate(folders + file_names):
        kind = "folder" if i < len(folders) else name.rsplit(".", 1)[1]
        lo, hi = _SIZE_KB[kind]
        age = int(rng.integers(0, 60 * 24 * 90))
        if age < now:
            when = x["today_at"].format(_clock(now - age))
        elif age < now + 24 * 60:
            when = x["yesterday_at"].format(_clock(now - age + 24 * 60))
        else:
            when = x["date"].format(m=w["month"][int(rng.integers(12))], d=int(rng.integers(1, 29)))
        files.append({"name": name, "kind": kind, "kind_text": x["kinds"][kind], "when": when,
                      "size": "--" if kind == "folder" else _size(int(rng.integers(lo, hi + 1)), lang),
                      "count": int(rng.integers(2, 60)), "pics": x["file_pics"].get(name, [])})
    disk_free = int(rng.integers(40, 700))

    # spreadsheet: a quarterly budget
    book = x["book"][int(rng.integers(len(x["book"])))]
    quarter = int(rng.integers(0, 4))
    months = [w["month"][quarter * 3 + i] for i in range(3)]
    categories = _pick(rng, x["categories"], 9)
    # a budget line costs about the same every month: a base of its own, each month within ±15% of it
    budget = [[int(base * f) for f in rng.uniform(0.85, 1.15, 3)] for base in rng.integers(200, 9000, len(categories))]
    plan = [int(sum(row) * rng.uniform(0.9, 1.15)) for row in budget]
    # comments on the sheet, or on a line of it: none about a line the sheet does not have
    comment_picks = _pick(rng, [cm for cm in x["comments"] if cm[1] is None or cm[1] in categories], 3)
    commenters = _pick(rng, others, 3)
    comment_ages = sorted(rng.integers(5, 60 * 30, 3).tolist())

    return {"members": members, "domain": domain, "toggles": toggles, "seats": seats,
            "wifi": wifi, "carrier": carrier, "storage_used": storage_used,
            "project": project, "files": files, "disk_free": disk_free,
            "book": book, "quarter": quarter + 1, "months": months, "categories": categories, "budget": budget,
            "plan": plan, "sheet_names": x["sheets"],
            "comments": [{"who": p, "text": t, "ago": ago(a), "line": categories.index(line) if line else None}
                         for p, (t, line), a in zip(commenters, comment_picks, comment_ages)]}
